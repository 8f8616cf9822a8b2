//! zayavka-llm (being written).
