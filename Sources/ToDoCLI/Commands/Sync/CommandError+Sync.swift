import ToDoCore
import ToDoModel

/// A sync that did not happen, or not whole: the server could not be reached, refused the
/// password, or answered wrongly; nothing was lost on either side (exit 1). A sync that would
/// delete too much is refused (exit 3).
extension CommandError {
    static func sync(_ message: String) -> CommandError {
        CommandError(.failure, message)
    }

    static func sync(_ error: CalDAVError) -> CommandError {
        CommandError(ExitCode(error.outcome), "cannot sync: \(error)")
    }

    static func sync(_ error: SyncError) -> CommandError {
        switch error {
        case .notSetUp:
            return CommandError(ExitCode(error.outcome), SyncCommand.notSynced)
        case .server(let server):
            return sync(server)
        case .deletesTooMuch(let local, let remote, let localCount, let remoteCount, let earlier):
            var what =
                local > 0
                ? "delete \(local) of the \(counted(localCount, "item")) here"
                : "delete \(remote) of the \(counted(remoteCount, "task")) on the server"
            if earlier > 0 { what += ", after \(earlier) deleted by syncs in the last day" }
            return CommandError(
                ExitCode(error.outcome), "the sync would \(what); nothing was changed (todo sync --force does it)")
        }
    }
}
