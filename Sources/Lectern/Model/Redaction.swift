import Foundation

/// Keeps secrets out of everything Lectern records or shows: the login in a URL
/// (`https://user:KEY@host/`), key-like query values (`?api_key=KEY`), and API keys a server
/// echoes back. Every place that stores or prints a URL goes through `url(_:)`.
enum Redaction {
    /// The URL without `user:password@` and with the value of every secret-looking query
    /// parameter (`api_key`, `token`, `X-Amz-Signature`, …) replaced by `***`. A URL without
    /// secrets comes back exactly as given.
    static func url(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        var changed = false
        if components.user != nil || components.password != nil {
            components.user = nil
            components.password = nil
            changed = true
        }
        // The encoded items, so that the parameters that stay keep their spelling (`%20`, `+`).
        if let items = components.percentEncodedQueryItems, items.contains(where: { isSecretParameter($0.name) && $0.value != nil }) {
            components.percentEncodedQueryItems = items.map { item in
                guard isSecretParameter(item.name), item.value != nil else { return item }
                return URLQueryItem(name: item.name, value: "***")
            }
            changed = true
        }
        return changed ? (components.string ?? url) : url
    }

    /// `text` with every URL in it passed through `url(_:)`: a command line
    /// (`--base-url=http://u:pw@host/v1`) or an error line as a run records it. Any scheme, not
    /// only http(s): `postgres://user:pw@host/db` and `ftp://u:p@h` carry logins too.
    static func urls(in text: String) -> String {
        guard text.contains("://") else { return text }
        var result = ""
        var rest = text[...]
        while let match = rest.range(of: #"[a-z][a-z0-9+.-]*://[^\s"'<>]+"#, options: [.regularExpression, .caseInsensitive]) {
            result += rest[..<match.lowerBound]
            // Trailing punctuation ends the sentence, not the URL.
            var candidate = rest[match]
            while let last = candidate.last, ".,;:)]!?".contains(last) { candidate = candidate.dropLast() }
            result += url(String(candidate))
            rest = rest[candidate.endIndex...]
        }
        return result + rest
    }

    /// The URL without `user:password@` but otherwise as given (it still fetches the same page).
    static func withoutUserInfo(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.user != nil || components.password != nil else { return url }
        components.user = nil
        components.password = nil
        return components.string ?? url
    }

    /// What a URL carries that must never be shown: its user and password (as typed and
    /// decoded), the `Basic` token libcurl makes of them, and secret query values.
    static func credentials(in url: String) -> [String] {
        guard let components = URLComponents(string: url) else { return [] }
        var secrets: [String] = []
        let user = components.user ?? ""
        let password = components.password ?? ""
        secrets += [user, password, components.percentEncodedUser ?? "", components.percentEncodedPassword ?? ""]
        if components.user != nil || components.password != nil {
            let login = components.password == nil ? user : user + ":" + password
            secrets.append(Data(login.utf8).base64EncodedString())
        }
        for item in components.percentEncodedQueryItems ?? [] where isSecretParameter(item.name) {
            if let value = item.value {
                secrets += [value, value.removingPercentEncoding ?? value]
            }
        }
        return secrets.filter { !$0.isEmpty }
    }

    /// Query parameter names that carry credentials: `key`, `api_key`, `apiKey`, `access_token`,
    /// `client_secret`, `password`, `sig`, `X-Amz-Signature`, `X-Amz-Credential`, `auth`…, but
    /// not `monkey` or `keyword`.
    static func isSecretParameter(_ name: String) -> Bool {
        let words = parameterWords(name)
        if words.contains(where: secretWords.contains) { return true }
        let joined = words.joined()
        return secretFragments.contains { joined.contains($0) }
    }

    static let secretWords: Set<String> = [
        "key", "apikey", "token", "secret", "password", "passwd", "pwd", "pass", "sig", "signature",
        "credential", "credentials", "auth", "authorization", "sessionid", "jwt",
    ]
    static let secretFragments = ["token", "secret", "password", "apikey", "accesskey", "privatekey", "signature"]

    /// `X-Amz-Signature` → x, amz, signature; `apiKey` → api, key; `client_secret` → client, secret.
    static func parameterWords(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousLower = false
        for character in name {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current.lowercased()); current = "" }
                previousLower = false
                continue
            }
            if character.isUppercase, previousLower, !current.isEmpty {
                words.append(current.lowercased())
                current = ""
            }
            current.append(character)
            previousLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }

    /// `text` with an API key replaced by `***`, and also the parts of it providers echo back
    /// ("Incorrect API key provided: sk-abc1***wxyz"): its first 8 and last 4 characters, when
    /// the key is long enough that those are not everyday words. The one redaction every
    /// client of a keyed API (language models, embedders) uses.
    static func text(_ text: String, hidingKey key: String?) -> String {
        guard let key, !key.isEmpty else { return text }
        var secrets = [key]
        if key.count >= 12 {
            secrets.append(String(key.prefix(8)))
            secrets.append(String(key.suffix(4)))
        }
        return self.text(text, hiding: secrets)
    }

    /// `text` with every occurrence of each secret replaced by `***`, longest first (so that a
    /// password inside a longer token does not leave the token's remains).
    static func text(_ text: String, hiding secrets: [String]) -> String {
        var text = text
        for secret in secrets.sorted(by: { $0.count > $1.count }) where secret.count >= 4 {
            text = text.replacingOccurrences(of: secret, with: "***")
        }
        return text
    }
}
