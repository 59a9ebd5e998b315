// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Multicall3 (subset)
/// @notice The x402 EVM facilitator diagnoses a failed EIP-3009 simulation (nonce already used, insufficient
/// balance, wrong token name/version) through Multicall3's `tryAggregate` at its canonical address
/// 0xcA11bde05977b3631167028862bE2a173976CA11, which a fresh anvil chain does not have. The simulator places
/// this runtime code there with anvil_setCode. Same ABI as the canonical contract for the functions present.
contract Multicall3 {
	struct Call {
		address target;
		bytes callData;
	}

	struct Call3 {
		address target;
		bool allowFailure;
		bytes callData;
	}

	struct Result {
		bool success;
		bytes returnData;
	}

	function aggregate(Call[] calldata calls) external payable returns (uint256 blockNumber, bytes[] memory returnData) {
		blockNumber = block.number;
		returnData = new bytes[](calls.length);
		for (uint256 i = 0; i < calls.length; i++) {
			(bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
			require(success, "Multicall3: call failed");
			returnData[i] = ret;
		}
	}

	function tryAggregate(bool requireSuccess, Call[] calldata calls) public payable returns (Result[] memory returnData) {
		returnData = new Result[](calls.length);
		for (uint256 i = 0; i < calls.length; i++) {
			(bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
			if (requireSuccess) require(success, "Multicall3: call failed");
			returnData[i] = Result(success, ret);
		}
	}

	function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
		returnData = new Result[](calls.length);
		for (uint256 i = 0; i < calls.length; i++) {
			(bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
			if (!success && !calls[i].allowFailure) revert("Multicall3: call failed");
			returnData[i] = Result(success, ret);
		}
	}

	function getBlockNumber() external view returns (uint256) {
		return block.number;
	}

	function getCurrentBlockTimestamp() external view returns (uint256) {
		return block.timestamp;
	}

	function getChainId() external view returns (uint256) {
		return block.chainid;
	}
}
