print("zkpin-server: not built yet")
