import Foundation

/// Names of environment variables, as settings that point at a secret (`api_key_env`) hold them.
enum EnvironmentVariable {
    /// `OPENAI_API_KEY` is a variable's name; `sk-proj-…` is not (it is a key).
    static func isName(_ text: String) -> Bool {
        text.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil
    }
}
