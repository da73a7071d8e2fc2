// Filled in by the competition work (README.md).
