module golang.org/x/net

go 1.26.0

require golang.org/x/text v0.42.0
