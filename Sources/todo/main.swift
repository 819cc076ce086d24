import Foundation
import ToDoCLI
import ToDoNetwork

exit(ToDoCLI.run(Array(CommandLine.arguments.dropFirst()), in: .live(transport: URLSessionTransport())))
