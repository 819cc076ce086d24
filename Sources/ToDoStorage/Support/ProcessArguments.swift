/// The process's arguments as the system gave them, each checked for UTF-8: Swift's
/// `CommandLine.arguments` would quietly store U+FFFD in place of bytes that are not.
package enum ProcessArguments {
    /// Each argument after the program's name, with its position (1 for the first): its text, or
    /// `nil` where it is not valid UTF-8, and how it shows either way.
    package static func all() -> [(position: Int, text: String?, shown: String)] {
        (1..<Int(CommandLine.argc)).compactMap { position in
            guard let pointer = CommandLine.unsafeArgv[position] else { return nil }
            return (position, String(validatingCString: pointer), String(cString: pointer))
        }
    }
}
