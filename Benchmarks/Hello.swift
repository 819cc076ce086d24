// The yardstick: a hello-world that imports and loads Foundation, timed in the same run as todo.
import Foundation

print("hello, \(ProcessInfo.processInfo.processIdentifier > 0 ? "world" : "")")
