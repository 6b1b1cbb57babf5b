"""The compile side: the partitioner, the builder, the op handlers and patterns, the
passes, preprocess and the payload's serialization. It imports the formats, never the
runtime, the front ends or the tools."""
