print("benchmarks: not implemented yet")
