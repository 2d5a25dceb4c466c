import Logging

/// What both log formats write as a line's metadata.
enum LogMetadata {
    /// The logger's metadata, then the metadata provider's, then the event's own, then its
    /// error as `error.message`: a later source wins on a shared key.
    static func merged(_ base: Logger.Metadata, provider: Logger.MetadataProvider?, event: LogEvent) -> Logger.Metadata {
        var merged = base
        if let provided = provider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
        if let error = event.error { merged["error.message"] = "\(error)" }
        return merged
    }
}
