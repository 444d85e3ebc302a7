package check

import "fmt"

// EnumName writes v, a value of the enumeration typ, as its name in names,
// or as typ(v) if it has none.
func EnumName[E ~uint8](names []string, v E, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, uint8(v))
}
