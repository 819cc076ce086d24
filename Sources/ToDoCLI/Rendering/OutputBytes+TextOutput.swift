import struct ToDoStorage.OutputBytes

extension OutputBytes {
    /// Bytes for `output`, written to it as they fill the buffer (`flush()` for the rest).
    init(_ output: TextOutput) {
        self.init(flushingTo: output.write(bytes:))
    }
}
