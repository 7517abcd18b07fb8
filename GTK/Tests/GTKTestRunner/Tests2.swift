import CDiffableGTK
import CGtk4
import Diffable
import DiffableGTK
import Foundation

func signalCounts(_ results: Results) {}
func widgetIdentity(_ results: Results) {}
func selectionFollows(_ results: Results) {}
func backgroundApplies(_ results: Results) {}
