"""One render step per target. Each target module exposes
`render(schema, env) -> dict[relative_path, unformatted_text]`."""
