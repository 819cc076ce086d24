import Foundation
import ToDoCLI

exit(ToDoCLI.run(Array(CommandLine.arguments.dropFirst()), in: .live()))
