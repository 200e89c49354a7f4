//! Notes and warnings the input readers print on standard error. They go straight to stderr,
//! unless the calling thread is capturing them: a command that prepares many inputs in
//! parallel (`validate --suite kernel-time`) captures each input's notes and prints them in
//! the inputs' order, so two runs print the same stream whatever order the threads finish in.

use std::cell::RefCell;

thread_local! {
    /// The notes of the capture running on this thread (`None`: print them).
    static CAPTURED: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Print `note` on standard error, or keep it for the capture running on this thread.
pub(crate) fn emit(note: impl std::fmt::Display) {
    let note = note.to_string();
    let kept = CAPTURED.with(|c| match c.borrow_mut().as_mut() {
        Some(notes) => {
            notes.push(note.clone());
            true
        }
        None => false,
    });
    if !kept {
        eprintln!("{note}");
    }
}

/// Run `f` and return its result with the notes it emitted on this thread, in order.
pub(crate) fn capture<T>(f: impl FnOnce() -> T) -> (T, Vec<String>) {
    let outer = CAPTURED.with(|c| c.borrow_mut().replace(Vec::new()));
    let value = f();
    let notes = CAPTURED.with(|c| std::mem::replace(&mut *c.borrow_mut(), outer));
    (value, notes.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::{capture, emit};

    #[test]
    fn a_capture_keeps_its_notes_in_order_and_nested_ones_apart() {
        let (((), inner), outer) = capture(|| {
            emit("first");
            let kept = capture(|| emit("inner"));
            emit("second");
            kept
        });
        assert_eq!(outer, ["first", "second"]);
        assert_eq!(inner, ["inner"]);
    }
}
