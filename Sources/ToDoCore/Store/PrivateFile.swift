import ToDoModel
import ToDoStorage

/// A file of the user's own written as the list is (see `FileSystem.writeAtomically`): readable by
/// its owner only, flushed to disk and put in place in one rename, so that a crash or a full disk
/// leaves the old file or the new one, never half of one. `todo export --output` writes through it:
/// an export of a private list stays private.
public enum PrivateFile {
    /// Replaces the file at `path` with `bytes`, mode 0600.
    public static func write(_ bytes: [UInt8], toPath path: String) throws(StoreError) {
        try FileSystem.writeAtomically(to: path, permissions: JSONFileStore.filePermissions, keepingSpare: false) {
            append throws(StoreError) in try append(bytes)
        }
    }
}
