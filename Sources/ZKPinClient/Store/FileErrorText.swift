import Foundation

/// One phrase for Foundation's file errors (creating the store's folder), whose own text names
/// an error domain and code.
enum FileErrorText {
    static func reason(_ error: CocoaError) -> String {
        switch error.code {
        case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "the disk is full"
        case .fileWriteVolumeReadOnly: return "the disk is read-only"
        case .fileNoSuchFile, .fileReadNoSuchFile: return "a folder on its path does not exist"
        case .fileWriteFileExists: return "a file is in the way"
        default: return "its folder cannot be created (is part of the path a file?)"
        }
    }
}
