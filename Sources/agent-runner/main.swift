print("agent-runner: not implemented yet")
