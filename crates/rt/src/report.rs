//! Side-by-side layout reports (being written).
