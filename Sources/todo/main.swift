// The command line arrives with its own issue; until then the executable only names its version.
print("todo 0.1.0")
