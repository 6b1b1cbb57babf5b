"""One render step per target. Each target module exposes
`render(schema, env) -> dict[relative_path, unformatted_text]`, except
`flatc_python_rules`: what flatc's own Python target (pipeline.run_flatc) cannot
take, checked by codegen.resolve."""
