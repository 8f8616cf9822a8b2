//! zayavka-engine (being written).
