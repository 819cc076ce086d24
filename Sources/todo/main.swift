import ProcessMemory
import ToDoCLI
import ToDoNetwork

#if canImport(Glibc)
import Glibc
#else
import Darwin
import ToDoURLSession
#endif

todo_prepare_process_memory()
todo_report_mapped_files_cut_short()
#if os(Linux)
// libcurl's easy interface waits without keeping a core busy, as URLSession on Linux does.
exit(ToDoCLI.runProcess(in: .live(transport: CurlTransport())))
#else
exit(ToDoCLI.runProcess(in: .live(transport: URLSessionTransport())))
#endif
