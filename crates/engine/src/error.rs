//! Why a simulation could not run or finish.

/// One wave that can never progress, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StuckWave {
    /// Wave number (launch order).
    pub wave: u32,
    /// SIMD it runs on.
    pub simd: u32,
    /// Source line of the instruction it sits on (0 for synthesized ops).
    pub line: u32,
    /// The instruction's text.
    pub text: String,
    /// Why it cannot go on.
    pub reason: String,
}

/// Simulation errors.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The model lacks something the program needs, or a value is invalid.
    #[error("{0}")]
    Model(String),
    /// The dispatch parameters cannot work (a workgroup larger than a CU).
    #[error("{0}")]
    Dispatch(String),
    /// Waves that can never progress.
    #[error("deadlock at clock {clock}: {}", describe(.waves))]
    Deadlock {
        /// When it was detected.
        clock: u64,
        /// The stuck waves (first few).
        waves: Vec<StuckWave>,
    },
    /// The run exceeded the clock limit.
    #[error("the simulation did not finish within {0} clocks")]
    TooLong(u64),
}

fn describe(waves: &[StuckWave]) -> String {
    waves
        .iter()
        .map(|w| {
            let place = if w.line > 0 {
                format!("line {} ", w.line)
            } else {
                String::new()
            };
            format!(
                "wave {} (SIMD {}) cannot leave {place}`{}`: {}",
                w.wave, w.simd, w.text, w.reason
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The occupancy rule's refusals keep their kind: a model error, or no wave fits (dispatch).
impl From<shadersim_occupancy::amd::OccupancyError> for SimError {
    fn from(e: shadersim_occupancy::amd::OccupancyError) -> SimError {
        match e {
            shadersim_occupancy::amd::OccupancyError::Model(m) => SimError::Model(m),
            shadersim_occupancy::amd::OccupancyError::Dispatch(m) => SimError::Dispatch(m),
        }
    }
}
