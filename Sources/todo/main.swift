import Foundation
import ToDoCLI
import ToDoNetwork

exit(ToDoCLI.runProcess(in: .live(transport: URLSessionTransport())))
