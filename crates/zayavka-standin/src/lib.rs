//! zayavka-standin (being written).
