//! Shared fixtures for the behaviour tests in `tests/tests/`.
