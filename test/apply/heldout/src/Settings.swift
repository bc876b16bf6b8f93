import Foundation

enum Theme: String {
    case light
    case dark
    case system
}

struct Settings: Codable {
    var theme: String
    var fontSize: Int
    var notifications: Bool
}

final class SettingsStore {
    private let defaults: UserDefaults
    private let keys = ["theme", "fontSize", "notifications"]

    init(defaults: UserDefaults = .standard) {
        self.defaults = defaults
    }

    func load() -> Settings {
        guard let data = defaults.data(forKey: "settings") else {
            return Settings(theme: "system", fontSize: 14, notifications: true)
        }
        guard let settings = try? JSONDecoder().decode(Settings.self, from: data) else {
            return Settings(theme: "system", fontSize: 14, notifications: true)
        }
        return settings
    }

    func save(_ settings: Settings) {
        if let data = try? JSONEncoder().encode(settings) {
            defaults.set(data, forKey: "settings")
        }
    }

    func reset() {
        defaults.removeObject(forKey: "settings")
    }
}
