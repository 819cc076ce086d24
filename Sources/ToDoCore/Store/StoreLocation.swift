import ToDoModel
import ToDoStorage

/// Where the data file is, from the most specific setting to the least: the `--file` option,
/// `TODO_FILE`, then `$XDG_DATA_HOME/todo/items.json` with `~/.local/share` for an unset, empty or
/// relative `XDG_DATA_HOME` (relative values are invalid by the XDG specification).
public enum StoreLocation {
    /// The data file's URL. Relative `--file` and `TODO_FILE` paths are taken from
    /// `currentDirectory`; empty ones count as unset.
    public static func fileURL(
        fileOption: String?,
        environment: [String: String],
        homeDirectory: URL,
        currentDirectory: URL
    ) -> URL {
        for explicit in [fileOption, environment["TODO_FILE"]] {
            if let path = explicit, !path.isEmpty {
                return URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
            }
        }
        let dataHome: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            dataHome = homeDirectory.appendingPathComponent(".local/share", isDirectory: true)
        }
        return dataHome.appendingPathComponent("todo/items.json").standardizedFileURL
    }
}
