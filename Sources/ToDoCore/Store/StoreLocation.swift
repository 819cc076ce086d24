import ToDoModel
import ToDoStorage

/// Where the data file is, from the most specific setting to the least: the `--file` option,
/// `TODO_FILE`, then `$XDG_DATA_HOME/todo/items.json` with `~/.local/share` for an unset, empty or
/// relative `XDG_DATA_HOME` (relative values are invalid by the XDG specification).
public enum StoreLocation {
    /// The data file's path. Relative `--file` and `TODO_FILE` paths are taken from
    /// `currentDirectory`; empty ones count as unset.
    public static func path(
        fileOption: String?,
        environment: [String: String],
        homeDirectory: String,
        currentDirectory: String
    ) -> String {
        for explicit in [fileOption, environment["TODO_FILE"]] {
            if let path = explicit, !path.isEmpty {
                return PathText.standardized(PathText.absolute(path, in: currentDirectory))
            }
        }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            dataHome = PathText.appending(".local/share", to: PathText.absolute(homeDirectory, in: currentDirectory))
        }
        return PathText.standardized(PathText.appending("todo/items.json", to: dataHome))
    }
}
