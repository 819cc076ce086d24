import Foundation
import ProcessMemory
import ToDoCLI
import ToDoNetwork

todo_prepare_process_memory()
exit(ToDoCLI.runProcess(in: .live(transport: URLSessionTransport())))
