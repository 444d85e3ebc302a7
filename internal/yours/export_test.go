package yours

import (
	"context"

	"ratelab/grader"
)

// WithBuild returns cfg building with build instead of grader.LabBuild's.
func WithBuild(cfg Config, build func(lb *grader.LabBuild, ctx context.Context, out string) error) Config {
	cfg.build = build
	return cfg
}
