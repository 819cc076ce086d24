/// A file path's parts, as text: what `NSString`'s path methods do for the paths todo handles,
/// without `NSString` (not in FoundationEssentials). Slashes at the end are not part of a name.
package enum PathText {
    /// The folder `path` is in: `/a/b` → `/a`, `/a` → `/`, `b` → `` (the current folder).
    package static func folder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return path.hasPrefix("/") ? "/" : "" }
        let folder = withoutTrailingSlashes(trimmed[..<slash])
        return folder.isEmpty ? "/" : String(folder)
    }

    /// The last name of `path`: `/a/b/` → `b`, `/` → `/`.
    package static func lastName(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
        return String(trimmed[(trimmed.lastIndex(of: "/").map(trimmed.index(after:)) ?? trimmed.startIndex)...])
    }

    /// `name` inside the folder `path`: `/a` + `b` → `/a/b`, `` + `b` → `b`.
    package static func appending(_ name: String, to path: String) -> String {
        if path.isEmpty { return name }
        return path.hasSuffix("/") ? path + name : path + "/" + name
    }

    /// `path` as an absolute path: itself when it begins with `/`, else inside `folder`.
    package static func absolute(_ path: String, in folder: String) -> String {
        path.hasPrefix("/") ? path : appending(path, to: folder)
    }

    /// `path` without `.` and `..` segments, repeated slashes and a final one: `/a/./b//../c/` → `/a/c`.
    package static func standardized(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/") {
            switch segment {
            case ".": continue
            case "..":
                if !segments.isEmpty, segments.last != ".." {
                    segments.removeLast()
                } else if !path.hasPrefix("/") {
                    segments.append(segment)
                }
            default: segments.append(segment)
            }
        }
        let joined = segments.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    private static func withoutTrailingSlashes(_ path: some StringProtocol) -> Substring {
        var text = Substring(path)
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text == "/" ? "" : text
    }
}
