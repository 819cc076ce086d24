/// Percent-encoding (RFC 3986), as URLs and todo.txt tags use it.
enum PercentEncoding {
    /// `text` with every UTF-8 byte of the scalars `shouldEncode` picks written as `%XX`.
    static func encoded(_ text: String, where shouldEncode: (Unicode.Scalar) -> Bool) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        var result = ""
        for scalar in text.unicodeScalars {
            guard shouldEncode(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            for byte in String(scalar).utf8 {
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(digits[Int(byte >> 4)])
                result.unicodeScalars.append(digits[Int(byte & 15)])
            }
        }
        return result
    }
}
