package gradient2

// Config is a limit's fixed parameters.
type Config struct {
	InitialLimit, MinLimit, MaxLimit float64
	Smoothing                        float64
	RTTTolerance                     float64
	LongWindow                       int
	QueueSize                        func(limit int) float64
}

// DefaultConfig returns the defaults of Netflix's Gradient2Limit.
func DefaultConfig() Config {
	return Config{InitialLimit: 20, MinLimit: 20, MaxLimit: 200, Smoothing: 0.2, RTTTolerance: 1.5, LongWindow: 600}
}

func (c Config) queue(limit int) float64 {
	if c.QueueSize == nil {
		return 4
	}
	return c.QueueSize(limit)
}
