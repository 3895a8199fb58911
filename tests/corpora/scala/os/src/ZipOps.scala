package object zipplaceholders {} // keep package valid; real implementation is JVM-only
