//! The legal catalogue (being written).
