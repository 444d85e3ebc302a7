package store

import "testing"

func TestRebind(t *testing.T) {
	tests := []struct {
		name, in, sqlite, postgres string
	}{
		{"bare", "a = ? AND b = ?", "a = ? AND b = ?", "a = $1 AND b = $2"},
		{"numbered twice", "t = ?1 OR u = ?1 LIMIT ?2", "t = ?1 OR u = ?1 LIMIT ?2", "t = $1 OR u = $1 LIMIT $2"},
		{"list", "id IN (?, ?, ?)", "id IN (?, ?, ?)", "id IN ($1, $2, $3)"},
		{"none", "SELECT 1", "SELECT 1", "SELECT 1"},
		{"at the end", "x = ?", "x = ?", "x = $1"},
		{"ten and more", "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?", "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?", "$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11"},
	}
	for _, tt := range tests {
		if got := sqliteDialect.rebind(tt.in); got != tt.sqlite {
			t.Errorf("%s: sqlite rebind(%q) = %q; want %q", tt.name, tt.in, got, tt.sqlite)
		}
		if got := postgresDialect.rebind(tt.in); got != tt.postgres {
			t.Errorf("%s: postgres rebind(%q) = %q; want %q", tt.name, tt.in, got, tt.postgres)
		}
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/var/lib/class.db", "/var/lib/class.db"},
		{"postgres://ratelab:secret@db.example/class?sslmode=require", "postgres://ratelab:xxxxx@db.example/class?sslmode=require"},
		{"postgresql://db.example/class", "postgresql://db.example/class"},
	}
	for _, tt := range tests {
		if got := Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
