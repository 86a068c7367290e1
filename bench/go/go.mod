module hookline-bench

go 1.22

require github.com/hookline/hookline/bindings/go v0.0.0

replace github.com/hookline/hookline/bindings/go => ../../bindings/go
