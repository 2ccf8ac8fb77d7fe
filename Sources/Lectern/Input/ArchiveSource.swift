import Foundation

/// A ZIP archive given as a source (a file or a download): unpacked into a temporary folder
/// that lives as long as this value, and read as that folder, by content, like any other.
struct ArchiveSource {
    let folder: TemporaryDownload
    let input: SourceInput

    static func isZip(_ data: Data) -> Bool { data.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    /// Nil when `input` is not a ZIP archive.
    static func unpack(_ input: SourceInput, display: String) throws -> ArchiveSource? {
        guard !input.isDirectory, isZip(input.data) else { return nil }
        let folder = try TemporaryDownload()
        try ZipArchiveReader.unpack(input.data, into: folder.path, display: display)
        let root = contentRoot(folder.path)
        return ArchiveSource(folder: folder, input: SourceInput(uri: input.uri, path: root, isDirectory: true, options: input.options))
    }

    /// Archives often wrap everything in one top folder (GitHub's `owner-repo-sha/`): read that.
    static func contentRoot(_ folder: String) -> String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") && $0 != "__MACOSX" }
        if names.count == 1 {
            var isDirectory: ObjCBool = false
            let only = folder + "/" + names[0]
            if FileManager.default.fileExists(atPath: only, isDirectory: &isDirectory), isDirectory.boolValue { return contentRoot(only) }
        }
        return folder
    }
}
