import ToDoCore

/// A sync that did not happen, or not whole: the server could not be reached, refused the
/// password, or answered wrongly; nothing was lost on either side (exit 1). A sync that would
/// delete too much is refused (exit 3).
struct SyncFailure: Error, CustomStringConvertible {
    let message: String
    let refused: Bool

    init(message: String, refused: Bool = false) {
        self.message = message
        self.refused = refused
    }

    init(_ error: CalDAVError) {
        self.init(message: "cannot sync: \(error)")
    }

    init(_ error: SyncError) {
        switch error {
        case .notSetUp:
            self.init(message: SyncCommand.notSynced)
        case .server(let server):
            self.init(server)
        case .deletesTooMuch(let local, let remote, let localCount, let remoteCount, let earlier):
            var what = local > 0 ? "delete \(local) of the \(counted(localCount, "item")) here" : "delete \(remote) of the \(counted(remoteCount, "task")) on the server"
            if earlier > 0 { what += ", after \(earlier) deleted by syncs in the last day" }
            self.init(message: "the sync would \(what); nothing was changed (todo sync --force does it)", refused: true)
        }
    }

    var description: String { message }
}
