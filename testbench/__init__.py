"""The test bench: the op cases, the model zoo and their runners (python -m
testbench.run_ops, testbench.run_models, testbench.cuda_suite). It lives in the
checkout, next to the product it tests, and is not in the wheel."""
