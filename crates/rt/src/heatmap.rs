//! Steps-per-pixel heatmap images (being written).
