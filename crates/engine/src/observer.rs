//! An optional listener on the cycle loop: what each wave did and when.
//!
//! The machine is generic over an [`Observer`]. The plain run uses
//! [`NoObserver`], a zero-sized type whose hooks are empty and whose
//! [`Observer::ACTIVE`] is `false`, so every hook call and the work that
//! prepares its arguments compile away: a run that records nothing costs
//! what it cost before observers existed (the `simulate` criterion bench
//! measures it). Timelines and per-block time are built on top of these
//! events (shadersim-report), never inside the engine.
//!
//! Every event carries the clock it happened at; events arrive in clock
//! order per wave (not necessarily across waves within one clock).

/// One issued op: the wave, where it was served and when the wave could
/// look at its next op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IssueEvent {
    /// Clock of the issue.
    pub clock: u64,
    /// Wave (launch order).
    pub wave: u32,
    /// Its SIMD.
    pub simd: u32,
    /// Static op index (`SimProgram::ops`).
    pub op: u32,
    /// Unit index (`SimProgram::units`) that serves it.
    pub unit: u8,
    /// When the unit starts serving it (later than `clock` behind a queue).
    pub service_start: u64,
    /// When the unit is done with it.
    pub service_end: u64,
    /// When the wave may issue again.
    pub wave_ready: u64,
}

/// Receives the run's events. Every hook has an empty default.
pub trait Observer {
    /// `false` only for observers that record nothing: the machine then
    /// skips preparing event data (the calls themselves are empty anyway).
    const ACTIVE: bool = true;

    /// Wave `wave` was launched on SIMD `simd`.
    fn launch(&mut self, _clock: u64, _wave: u32, _simd: u32) {}

    /// A wave issued an op to a unit.
    fn issue(&mut self, _event: &IssueEvent) {}

    /// A wave executed a free op (a satisfied wait, a nop, a sleep, a
    /// passed barrier): it took no issue slot.
    fn pass(&mut self, _clock: u64, _wave: u32, _op: u32) {}

    /// A wave started sitting on op `op`, unable to issue it.
    fn sit(&mut self, _clock: u64, _wave: u32, _op: u32) {}

    /// The wave stopped sitting (it issued or passed the op, or ended).
    fn rise(&mut self, _clock: u64, _wave: u32) {}

    /// The wave ended on op `op` (its end of program) and left its slot.
    fn end(&mut self, _clock: u64, _wave: u32, _op: u32) {}
}

/// The observer of a plain run: records nothing, costs nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    const ACTIVE: bool = false;
}

/// Every event, in arrival order (tests and small runs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventLog {
    /// The events.
    pub events: Vec<Event>,
}

/// One event of an [`EventLog`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// See [`Observer::launch`]: clock, wave, SIMD.
    Launch(u64, u32, u32),
    /// See [`Observer::issue`].
    Issue(IssueEvent),
    /// See [`Observer::pass`]: clock, wave, op.
    Pass(u64, u32, u32),
    /// See [`Observer::sit`]: clock, wave, op.
    Sit(u64, u32, u32),
    /// See [`Observer::rise`]: clock, wave.
    Rise(u64, u32),
    /// See [`Observer::end`]: clock, wave, op.
    End(u64, u32, u32),
}

impl Observer for EventLog {
    fn launch(&mut self, clock: u64, wave: u32, simd: u32) {
        self.events.push(Event::Launch(clock, wave, simd));
    }
    fn issue(&mut self, event: &IssueEvent) {
        self.events.push(Event::Issue(*event));
    }
    fn pass(&mut self, clock: u64, wave: u32, op: u32) {
        self.events.push(Event::Pass(clock, wave, op));
    }
    fn sit(&mut self, clock: u64, wave: u32, op: u32) {
        self.events.push(Event::Sit(clock, wave, op));
    }
    fn rise(&mut self, clock: u64, wave: u32) {
        self.events.push(Event::Rise(clock, wave));
    }
    fn end(&mut self, clock: u64, wave: u32, op: u32) {
        self.events.push(Event::End(clock, wave, op));
    }
}

/// An observer borrowed mutably observes too (so callers keep ownership).
impl<T: Observer> Observer for &mut T {
    const ACTIVE: bool = T::ACTIVE;
    fn launch(&mut self, clock: u64, wave: u32, simd: u32) {
        (**self).launch(clock, wave, simd);
    }
    fn issue(&mut self, event: &IssueEvent) {
        (**self).issue(event);
    }
    fn pass(&mut self, clock: u64, wave: u32, op: u32) {
        (**self).pass(clock, wave, op);
    }
    fn sit(&mut self, clock: u64, wave: u32, op: u32) {
        (**self).sit(clock, wave, op);
    }
    fn rise(&mut self, clock: u64, wave: u32) {
        (**self).rise(clock, wave);
    }
    fn end(&mut self, clock: u64, wave: u32, op: u32) {
        (**self).end(clock, wave, op);
    }
}
