package yours

import (
	"context"

	"ratelab/grader/build"
)

// WithBuild returns cfg building with build instead of build.Lab's.
func WithBuild(cfg Config, build func(lb *build.Lab, ctx context.Context, out string) error) Config {
	cfg.build = build
	return cfg
}
