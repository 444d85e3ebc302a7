package class

import (
	"context"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
)

// SetGradeForTest replaces grader.Grade in c's workers.
func SetGradeForTest(c *Class, f func(context.Context, grader.Options) (*report.Report, error)) {
	c.gradeFn = f
}

// RetryStoreForTest is c.retryStore with a first wait of d.
func RetryStoreForTest(c *Class, d time.Duration, ctx context.Context, write func(context.Context) error) error {
	c.storeRetry = d
	return c.retryStore(ctx, write)
}
