module acpgen.example/promoted

go 1.22
