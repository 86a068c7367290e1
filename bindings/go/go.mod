module github.com/hookline/hookline/bindings/go

go 1.22
