print("zkpin")
