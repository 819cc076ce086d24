import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoStorage

final class FileSystemTests: XCTestCase {
    func test_readFile_readsTheWholeFile_exactlyItsSize() throws {
        let directory = try TemporaryDirectory()
        for size in [0, 1, 4095, 4096, 100_003] {
            let path = directory.url.appendingPathComponent("f\(size)").path
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            XCTAssertEqual(try FileSystem.readFile(at: path), bytes, "size \(size)")
        }
        XCTAssertNil(try FileSystem.readFile(at: directory.url.appendingPathComponent("missing").path))
    }

    func test_readingInTwoHalves_givesTheFileAsReadInOneGo() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("f").path
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        // Buffers smaller than the file, of its size, and larger: the file ends in the first half,
        // in the second, or fills both.
        for capacity in [1, 2, 3, 999, 1_000, 1_001, 1_999, 2_000, 2_001, 5_000] {
            var buffer = [UInt8](repeating: 0xEE, count: capacity)
            let (length, error) = buffer.withUnsafeMutableBufferPointer {
                FileSystem.readInTwoHalves(descriptor, $0, minimumBytes: 1)
            }
            XCTAssertEqual(error, 0)
            XCTAssertEqual(Array(buffer[..<length]), Array(bytes.prefix(capacity)), "capacity \(capacity)")
        }
        // And through `readFile`, at the size from which it reads in two halves.
        let large = (0..<Parallelism.readFileInTwoHalvesMinimumBytes + 3).map {
            UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12)
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(large)))
        XCTAssertEqual(try FileSystem.readFile(at: path), large)
        XCTAssertEqual(
            try FileSystem.readOwnFile(at: path)?.bytes.array, large, "the list's own files, into memory of their own")
    }

    /// The digest's values are kept in files (each journal line's `check`, the sync state's list
    /// digest): they must never change. The wide digest (an index's) changes with every bit.
    func test_theDigest_keepsItsValues_andTheWideDigestSeesEveryBit() {
        let sample = Array("A list of things to do, and a journal of changes: 0123456789".utf8)
        XCTAssertEqual(sample.withUnsafeBufferPointer(FileSystem.digest(of:)), 0x1AC4_2918_8843_819C)
        XCTAssertEqual([UInt8]().withUnsafeBufferPointer(FileSystem.digest(of:)), 0x33B8_4AC3_B3BE_27D6)
        for count in [0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 200] {
            var bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let whole = bytes.withUnsafeBufferPointer(FileSystem.wideDigest(of:))
            var seen: Set<UInt64> = [whole]
            for bit in 0..<(8 * count) {
                bytes[bit / 8] ^= 1 << (bit % 8)
                seen.insert(bytes.withUnsafeBufferPointer(FileSystem.wideDigest(of:)))
                bytes[bit / 8] ^= 1 << (bit % 8)
            }
            XCTAssertEqual(seen.count, 8 * count + 1, "\(count) bytes: every flipped bit gives another digest")
            XCTAssertNotEqual((bytes + [0]).withUnsafeBufferPointer(FileSystem.wideDigest(of:)), whole, "a byte more")
        }
    }

    /// A list of a megabyte or more is mapped, not read, and gives the same bytes; a shorter one
    /// (and any other file) is read. The bytes mapped stay as they were while later changes
    /// replace the list: the old list becomes the spare, and a spare someone has mapped is never
    /// written into (the next write makes a new file), where one nothing holds is reused.
    func test_aLongList_isMapped_andNeverWrittenIntoWhileMapped() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("items.json").path
        // Made once each: a megabyte made byte by byte is slow under the sanitizers.
        let made = (0...4).map { seed in
            [UInt8](unsafeUninitializedCapacity: FileSystem.mapFromBytes + 5) { bytes, count in
                for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ seed) }
                count = bytes.count
            }
        }
        func contents(_ seed: Int) -> [UInt8] { made[seed] }
        func replace(with bytes: [UInt8]) throws {
            try FileSystem.writeAtomically(to: path, permissions: 0o600) { append throws(StoreError) in
                try append(bytes)
            }
        }
        func inode(_ path: String) throws -> UInt64 {
            try XCTUnwrap(
                (try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)?.uint64Value)
        }
        try replace(with: Array(contents(0).prefix(FileSystem.mapFromBytes - 1)))
        let short = try XCTUnwrap(FileSystem.readOwnFile(at: path, mapping: true))
        XCTAssertFalse(short.bytes.isMapped)
        XCTAssertEqual(short.bytes.array, Array(contents(0).prefix(FileSystem.mapFromBytes - 1)))

        try replace(with: contents(1))
        XCTAssertFalse(try XCTUnwrap(FileSystem.readOwnFile(at: path)).bytes.isMapped, "mapped only when asked")
        let first = try inode(path)
        var mapped: OwnedBytes? = try XCTUnwrap(FileSystem.readOwnFile(at: path, mapping: true)).bytes
        XCTAssertEqual(mapped?.isMapped, true)
        XCTAssertEqual(mapped?.count, contents(1).count)
        XCTAssertEqual(mapped?.array, contents(1))
        try replace(with: contents(2))
        try replace(with: contents(3))
        XCTAssertEqual(mapped?.array, contents(1), "the mapped list was not written into")
        XCTAssertEqual(try FileSystem.readOwnFile(at: path, mapping: true)?.bytes.array, contents(3))
        #if os(Linux)
        XCTAssertNotEqual(try inode(path), first, "a new file, not the mapped spare")
        // Once nothing holds the old list, its file is reused as the spare again (so the test above could fail).
        mapped = nil
        let spare = try inode(FileSystem.sparePath(for: path))
        try replace(with: contents(4))
        XCTAssertEqual(try inode(path), spare)
        #endif
    }

    #if os(Linux)
    func test_readFile_readsOnPastTheSizeTheFileHadWhenOpened() throws {
        // Files in /proc report a size of 0 and still have contents: the same path as a file that
        // grew between being opened and being read.
        let expected = try XCTUnwrap(FileManager.default.contents(atPath: "/proc/self/mountinfo"))
        XCTAssertGreaterThan(expected.count, 64)
        let read = try XCTUnwrap(try FileSystem.readFile(at: "/proc/self/mountinfo"))
        // Read on in pieces well past the first buffer: the owned memory grows as arrays do.
        let grown = OwnedBytes(capacity: 1)
        for piece in 0..<1_000 {
            grown.append(upTo: 100) { buffer in
                for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: piece &+ index) }
                return buffer.count
            }
        }
        XCTAssertEqual(grown.count, 100_000)
        XCTAssertEqual(
            grown.array, (0..<1_000).flatMap { piece in (0..<100).map { UInt8(truncatingIfNeeded: piece &+ $0) } })
        XCTAssertEqual(String(decoding: read, as: UTF8.self), String(decoding: expected, as: UTF8.self))
    }
    #endif
}
