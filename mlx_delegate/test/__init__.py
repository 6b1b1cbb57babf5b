"""The op test framework: OpTestCase, its registry and the runner."""
