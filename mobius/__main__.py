from mobius.cli import main

main()
