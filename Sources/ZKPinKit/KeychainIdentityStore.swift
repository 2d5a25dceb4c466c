#if canImport(Security)
    import Foundation
    import Security
    import ZKPinClientCore

    /// Identities in the Keychain of an iPhone or a Mac: one generic password item holding them
    /// as JSON, readable only while the device is unlocked and never moved to another device
    /// (kSecAttrAccessibleWhenUnlockedThisDeviceOnly: not in backups restored elsewhere).
    /// Not built on Linux: it has no Keychain.
    public final class KeychainIdentityStore: IdentityStore, @unchecked Sendable {
        /// The item's service attribute (one item per app and service).
        public let service: String
        public var location: String { "the Keychain (\(service))" }
        private let lock = NSLock()

        public init(service: String = "ZKPinKit.identities") { self.service = service }

        public func all() throws(ClientError) -> [Identity] {
            lock.lock()
            defer { lock.unlock() }
            return try load()
        }

        public func modify<Result>(server: String, userId: String, _ change: (inout Identity?) -> Result) throws(ClientError) -> Result {
            lock.lock()
            defer { lock.unlock() }
            var identities = try load()
            let (result, changed) = IdentityList.modify(&identities, server: server, userId: userId, change)
            if changed { try save(identities) }
            return result
        }

        public func delete(userId: String, server: String?) throws(ClientError) -> Int {
            lock.lock()
            defer { lock.unlock() }
            var identities = try load()
            let removed = IdentityList.delete(&identities, userId: userId, server: server)
            if removed > 0 { try save(identities) }
            return removed
        }

        private var query: [String: Any] {
            [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: "identities"]
        }

        private func load() throws(ClientError) -> [Identity] {
            var search = query
            search[kSecReturnData as String] = true
            var item: CFTypeRef?
            let status = SecItemCopyMatching(search as CFDictionary, &item)
            if status == errSecItemNotFound { return [] }
            guard status == errSecSuccess, let data = item as? Data,
                let identities = try? JSONDecoder().decode([Identity].self, from: data)
            else { throw .storeUnavailable(path: location, reason: "the Keychain item cannot be read (status \(status))") }
            return identities
        }

        private func save(_ identities: [Identity]) throws(ClientError) {
            guard let data = try? JSONEncoder().encode(identities) else {
                throw .storeUnavailable(path: location, reason: "the identities cannot be encoded")
            }
            var status = SecItemUpdate(query as CFDictionary, [kSecValueData as String: data] as CFDictionary)
            if status == errSecItemNotFound {
                var item = query
                item[kSecValueData as String] = data
                item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
                status = SecItemAdd(item as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw .storeUnavailable(path: location, reason: "the Keychain refused the change (status \(status))")
            }
        }
    }
#endif
