//! Progress on stderr for runs that take a while (the latency-tolerance
//! search, sweeps), with `indicatif`.
//!
//! Shown only when stderr is a terminal (never in pipes, files or CI logs,
//! so JSON and CSV outputs and scripts never see it) and only once the
//! work has taken about a second: a quick run draws nothing at all.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::mpsc;
use std::time::Duration;

/// How long work runs before its progress appears.
const DELAY: Duration = Duration::from_secs(1);

/// A progress bar (with a length) or spinner (without), hidden until
/// [`DELAY`] has passed; cleared when dropped.
pub struct Progress {
    bar: ProgressBar,
    /// Dropped when the work ends: wakes the thread waiting to show the bar.
    done: Option<mpsc::Sender<()>>,
    shower: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// Progress of `len` steps (`None`: a spinner) described by `what`.
    /// Returns a hidden bar that never draws when stderr is not a terminal.
    pub fn start(len: Option<u64>, what: &str) -> Progress {
        let bar = match len {
            Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::hidden()),
            None => ProgressBar::hidden(),
        };
        let style = match len {
            Some(_) => ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} {msg}, eta {eta}",
            )
            .map(|s| s.progress_chars("=> ")),
            None => ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}"),
        };
        bar.set_style(style.unwrap_or_else(|_| ProgressStyle::default_bar()));
        bar.set_message(what.to_string());
        if !std::io::stderr().is_terminal() {
            return Progress {
                bar,
                done: None,
                shower: None,
            };
        }
        let (tx, rx) = mpsc::channel::<()>();
        let shown = bar.clone();
        let shower = std::thread::spawn(move || {
            // Still running after the delay (nothing sent, sender alive):
            // show it.
            if let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(DELAY) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(120));
            }
        });
        Progress {
            bar,
            done: Some(tx),
            shower: Some(shower),
        }
    }

    /// One step done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// `n` steps done (callable from several threads at once).
    pub fn inc_by(&self, n: u64) {
        self.bar.inc(n);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        drop(self.done.take());
        if let Some(h) = self.shower.take() {
            let _ = h.join();
        }
        self.bar.finish_and_clear();
    }
}
